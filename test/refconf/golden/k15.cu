extern "C" __global__
void k15_kernel(int n, float* in1, float* in2, float f3, float* out4) {
    int v0 = blockIdx.x;
    int v1 = (v0 * 32);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    bool v5 = (v3 < n);
    float v6 = (v5 ? in1[v3] : -0.25f);
    float v7 = (isnan(v6) ? (v6) : (isnan(v6) ? (v6) : ((v6) > (v6) ? (v6) : (v6))));
    float v8 = expf(f3);
    float v9 = (v7 / v8);
    if (v5) {
        out4[v3] = v9;
    }
}
