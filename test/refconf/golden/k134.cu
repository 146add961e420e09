extern "C" __global__
void k134_kernel(int n, float* in1, float* in2, float f3, float* in4, float* out5) {
    float v0 = (isnan(f3) ? (f3) : (isnan(f3) ? (f3) : ((f3) > (f3) ? (f3) : (f3))));
    int v1 = blockIdx.x;
    out5[v1] = v0;
}
