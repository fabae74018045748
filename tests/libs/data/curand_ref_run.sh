nvidia-smi --query-gpu=name,driver_version --format=csv
nvcc --version | tail -2
H=$(find / -name curand_kernel.h -not -path "*/proc/*" 2>/dev/null | head -1); echo "header: $H"
INC=$(dirname "$H"); L=$(find / -name "libcurand.so*" -not -path "*/proc/*" 2>/dev/null | head -1); echo "lib: $L"
LD=$(dirname "$L"); [ -e "$LD/libcurand.so" ] || ln -sf "$L" /tmp/libcurand.so; 
cd .devrun && nvcc -O2 -arch=sm_90 -I"$INC" -o curand_ref curand_ref.cu -L"$LD" -L/tmp -lcurand -Xlinker -rpath -Xlinker "$LD" && LD_LIBRARY_PATH="$LD:$LD_LIBRARY_PATH" ./curand_ref > $OUT/curand_streams.txt
echo rc=$?; wc -l $OUT/curand_streams.txt; head -c 400 $OUT/curand_streams.txt
for f in curand_kernel.h curand_philox4x32_x.h curand_normal.h curand_uniform.h curand_mrg32k3a.h; do cp "$INC/$f" $OUT/ 2>/dev/null; done; ls $OUT
