extern "C" __global__
void k50_kernel(int n, float* in1, float* in2, float* in3, float f4, float f5, int trips6, float* in7, float* out8) {
    int v0 = blockIdx.x;
    int v1 = (v0 * 16);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    float v4 = -(f4);
    float v5 = expf(v4);
    float v6 = 0.0f;
    float v11 = v6;
    for (int v7 = 0; v7 < trips6; v7 += 1) {
        float v9 = -(v5);
        float v10 = (v11 + v9);
        v11 = v10;
    }
    float v12 = (v11 + 1.75f);
    bool v14 = (v3 < n);
    if (v14) {
        out8[v3] = v12;
    }
}
