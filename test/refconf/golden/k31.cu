extern "C" __global__
void k31_kernel(int n, float* in1, int s2, float f3, int trips4, float* in5, float* out6) {
    int v0 = blockIdx.x;
    int v1 = (v0 * 256);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    int v4 = -(s2);
    float v5 = 0.0f;
    float v10 = v5;
    for (int v6 = 0; v6 < trips4; v6 += 1) {
        int v8 = ((3) < (v4) ? (3) : (v4));
        float v9 = (v10 + v8);
        v10 = v9;
    }
    float v11 = (v3 / f3);
    float v12 = (v11 * 1.75f);
    bool v14 = (v3 < n);
    if (v14) {
        out6[v3] = v12;
    }
}
