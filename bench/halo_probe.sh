set -u
here=$PWD
. bench/device_env.sh
device_env "$here"
echo "== date: $(date -u +%FT%TZ)"; nvidia-smi --query-gpu=index,name --format=csv,noheader
meson setup /tmp/hp "$here" -Ddefault_backend=cuda -Dnvcc_arch=90 -Dmpi=enabled >/dev/null 2>&1 && ninja -C /tmp/hp >/dev/null 2>&1 || { echo build failed; exit 1; }
B=/tmp/hp/lockstep
for h in 4 8 16 32; do
  echo "-- 3D 2048^3 x 2048, 2 ranks, --halo $h"; mpirun -np 2 $B life --dims 3 --size 2048 --steps 2048 --backend cuda:all --halo $h --quiet --timings | grep -E "^time:|grid digest|^timings"
done
for h in 4 8 16; do
  echo "-- 3D 2048^3 x 2048, cuda:all, --halo $h"; $B life --dims 3 --size 2048 --steps 2048 --backend cuda:all --halo $h --quiet --timings | grep -E "^time:|grid digest|^timings"
done
echo "-- 3D 2048^3 x 2048, cuda:0"; $B life --dims 3 --size 2048 --steps 2048 --backend cuda:0 --quiet | grep -E "^time:|grid digest"
