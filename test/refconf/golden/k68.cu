extern "C" __global__
void k68_kernel(int n, float* in1, float* in2, float* in3, float f4, int s5, int trips6, float* in7, float* out8) {
    int v0 = blockIdx.x;
    int v1 = (v0 * 256);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    bool v5 = (v3 < n);
    float v6 = (v5 ? in1[v3] : -1.75f);
    bool v7 = (v6 < -3.25f);
    float v8 = 0.0f;
    float v13 = v8;
    for (int v9 = 0; v9 < trips6; v9 += 1) {
        int v11 = (v7 ? s5 : 3);
        float v12 = (v13 + v11);
        v13 = v12;
    }
    float v14 = expf(v13);
    float v15 = (-1.0f + v14);
    if (v5) {
        out8[v3] = v15;
    }
}
