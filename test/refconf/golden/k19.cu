extern "C" __global__
void k19_kernel(int n, float* in1, float* in2, float f3, int trips4, float* in5, float* out6) {
    int v0 = blockIdx.x;
    int v1 = (v0 * 64);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    bool v5 = (v3 < n);
    float v6 = (v5 ? in1[v3] : 1.0f);
    float v7 = expf(v6);
    float v8 = -(v7);
    float v10 = (v5 ? in2[v3] : -1.5f);
    float v11 = (isnan(v8) ? (v8) : (isnan(v10) ? (v10) : ((v8) < (v10) ? (v8) : (v10))));
    float v15 = 0.0f;
    for (int v12 = 0; v12 < trips4; v12 += 1) {
        float v14 = (v15 + v12);
        v15 = v14;
    }
    float v16 = -0.5f;
    float v17 = (v16 - v11);
    if (v5) {
        out6[v3] = v17;
    }
}
