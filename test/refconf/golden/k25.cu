extern "C" __global__
void k25_kernel(int n, float* in1, float f2, int s3, int trips4, float* in5, float* out6) {
    int v0 = blockIdx.x;
    int v1 = (v0 * 256);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    float v4 = 0.0f;
    float v9 = v4;
    for (int v5 = 0; v5 < trips4; v5 += 1) {
        int v7 = ((3) < (v5) ? (3) : (v5));
        float v8 = (v9 + v7);
        v9 = v8;
    }
    bool v11 = (v3 < n);
    float v12 = (v11 ? in1[v3] : 1.25f);
    float v13 = expf(v12);
    float v14 = -(v13);
    float v15 = expf(f2);
    float v16 = (v14 / v15);
    float v17 = (v16 * 1.75f);
    if (v11) {
        out6[v3] = v17;
    }
}
