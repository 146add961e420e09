extern "C" __global__
void k145_kernel(int n, float* in1, float* in2, float f3, int trips4, float* in5, float* out6) {
    int v0 = blockIdx.x;
    int v1 = (v0 * 128);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    float v4 = 0.0f;
    float v13 = v4;
    for (int v5 = 0; v5 < trips4; v5 += 1) {
        int v7 = (v3 + v5);
        bool v9 = (v7 < 251);
        float v10 = (v9 ? in5[v7] : -1.0f);
        float v11 = (v10 - v5);
        float v12 = (v13 + v11);
        v13 = v12;
    }
    bool v15 = (v3 < n);
    float v16 = (v15 ? in2[v3] : 0.75f);
    float v17 = -(v16);
    if (v15) {
        out6[v3] = v17;
    }
}
