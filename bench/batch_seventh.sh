set -u
bash bench/issue26d.sh final .peers/base.tar $OUT > /dev/null 2>&1
grep -v "^bench/" $OUT/issue26d-final.log | tail -48
B=/tmp/i26d-build-b/lockstep
echo "== four ranks (--bind-to none), each its share of the cores: 3D 2048^3 x 2048 and the largest grid"
for a in "--dims 3 --size 2048 --steps 2048" "--dims 3 --size 8192x8192x16384 --steps 8"; do
  s=$(date +%s.%N)
  CUDA_VISIBLE_DEVICES=0,1,2,3 timeout --foreground 120 mpirun --bind-to none -np 4 -x CUDA_VISIBLE_DEVICES $B life $a --backend cuda:all --quiet --timings 2>&1 | grep -E "^timings|^time:|grid digest"
  echo "whole process: $(awk -v a="$s" -v b="$(date +%s.%N)" 'BEGIN{print b - a}') s: 4 ranks $a"
done
BASE_TAR=.peers/base28.tar OUT=$OUT VARIANTS_NVIDIA=1 timeout --foreground 240 bash bench/life3d_variants.sh base default s0 w8 > /dev/null 2>&1
grep -E "^==|^--|median|agree|differ" $OUT/life3d_variants.log | grep -v "^rate" | sed 's/mean .*median/median/' | tail -40
echo "== ncu: the tile walk (default) and the walk of one generation (base)"
for v in default base; do
  timeout --foreground 90 ncu --clock-control none --kernel-name regex:"life_(tile|step)_3d" --launch-skip 4 --launch-count 1 \
    --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section ComputeWorkloadAnalysis \
    /tmp/life3d-$v/lockstep life --dims 3 --size 1024 --steps 8 --density 0.2 --backend cuda:0 --quiet > $OUT/ncu-life3d-$v.txt 2>&1
  grep -E "life_|Duration|Registers Per|Achieved Occupancy|Issue Slots Busy|Compute \(SM\) Throughput|Memory Throughput|Stall|Theoretical Occupancy|Block Limit" $OUT/ncu-life3d-$v.txt | head -20
done
