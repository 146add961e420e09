extern "C" __global__
void k3_kernel(int n, float* in1, float f2, int s3, int trips4, float* in5, float* out6) {
    int v0 = blockIdx.x;
    int v1 = (v0 * 128);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    bool v4 = (f2 < 3.25f);
    bool v6 = (v3 < n);
    float v7 = (v6 ? in1[v3] : 1.5f);
    float v8 = -(v7);
    float v9 = (isnan(v8) ? (v8) : (isnan(f2) ? (f2) : ((v8) < (f2) ? (v8) : (f2))));
    float v13 = 0.0f;
    for (int v10 = 0; v10 < trips4; v10 += 1) {
        float v12 = (v13 + v10);
        v13 = v12;
    }
    float v14 = (v9 * v9);
    if (v6) {
        out6[v3] = v14;
    }
}
