extern "C" __global__
void k16_kernel(int n, float* in1, float* in2, float f3, float* out4) {
    int v0 = blockIdx.x;
    int v1 = (v0 * 128);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    bool v5 = (v3 < n);
    float v6 = (v5 ? in1[v3] : -2.0f);
    float v7 = expf(v6);
    if (v5) {
        out4[v3] = v7;
    }
}
