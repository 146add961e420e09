extern "C" __global__
void k58_kernel(int n, float* in1, float* in2, float* in3, int trips4, float* in5, float* out6) {
    int v0 = blockIdx.x;
    int v1 = (v0 * 32);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    bool v5 = (v3 < n);
    float v6 = (v5 ? in3[v3] : -1.25f);
    float v7 = (isnan(-2.25f) ? (-2.25f) : (isnan(v6) ? (v6) : ((-2.25f) < (v6) ? (-2.25f) : (v6))));
    float v8 = 0.0f;
    float v13 = v8;
    for (int v9 = 0; v9 < trips4; v9 += 1) {
        float v11 = -(v7);
        float v12 = (v13 + v11);
        v13 = v12;
    }
    float v14 = expf(v7);
    if (v5) {
        out6[v3] = v14;
    }
}
