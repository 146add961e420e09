extern "C" __global__
void k143_kernel(int n, float* in1, int s2, float* in3, int trips4, float* in5, float* out6) {
    int v0 = blockIdx.x;
    int v1 = (v0 * 16);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    bool v5 = (v3 < n);
    float v6 = (v5 ? in1[v3] : 0.0f);
    bool v7 = (v6 < 2.75f);
    float v8 = 0.0f;
    float v17 = v8;
    for (int v9 = 2; v9 < trips4; v9 += 3) {
        int v11 = (v3 + v9);
        bool v13 = (v11 < 27);
        float v14 = (v13 ? in5[v11] : 1.75f);
        float v15 = (v7 ? v14 : s2);
        float v16 = (v17 + v15);
        v17 = v16;
    }
    int v18 = ((v3) < (s2) ? (v3) : (s2));
    bool v19 = (v18 < -1);
    int v20 = (v19 ? 1 : 0);
    float v21 = (v20 + 0.0f);
    if (v5) {
        out6[v3] = v21;
    }
}
