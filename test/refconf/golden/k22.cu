extern "C" __global__
void k22_kernel(int n, float* in1, float* in2, float* out3) {
    int v0 = blockIdx.x;
    int v1 = (v0 * 128);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    bool v5 = (v3 < n);
    float v6 = (v5 ? in1[v3] : -0.25f);
    float v7 = expf(v6);
    float v8 = -(v7);
    float v10 = (v5 ? in2[v3] : 0.75f);
    float v11 = (isnan(v8) ? (v8) : (isnan(v10) ? (v10) : ((v8) < (v10) ? (v8) : (v10))));
    if (v5) {
        out3[v3] = v11;
    }
}
