extern "C" __global__
void k71_kernel(int n, float* in1, float* in2, float* in3, float f4, float* in5, float* out6) {
    float v0 = -0.5f;
    int v1 = blockIdx.x;
    int v2 = (v1 * 64);
    int v3 = threadIdx.x;
    int v4 = (v2 + v3);
    bool v6 = (v4 < n);
    float v7 = (v6 ? in3[v4] : -0.75f);
    float v8 = (v7 + v7);
    float v9 = (isnan(v7) ? (v7) : (isnan(v8) ? (v8) : ((v7) > (v8) ? (v7) : (v8))));
    float v10 = (v0 - v9);
    float v11 = expf(v10);
    float v12 = (v11 + 1.75f);
    if (v6) {
        out6[v4] = v12;
    }
}
