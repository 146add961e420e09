extern "C" __global__
void k62_kernel(int n, float* in1, float f2, float f3, float* out4) {
    float v0 = (isnan(1.5f) ? (1.5f) : (isnan(f3) ? (f3) : ((1.5f) > (f3) ? (1.5f) : (f3))));
    float v1 = expf(v0);
    float v2 = expf(v1);
    int v3 = blockIdx.x;
    out4[v3] = v2;
}
