set -u
here=$PWD
mkdir -p /etc/OpenCL/vendors && echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export PATH=/usr/local/cuda/bin:$PATH NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export PKG_CONFIG_PATH=$here/.peers/sqlite/pkgconfig:$here/.peers/xxhash/pkgconfig
ldconfig -p | grep -q "libsqlite3.so.0 " || export LD_LIBRARY_PATH=$here/.peers/sqlite/lib
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
