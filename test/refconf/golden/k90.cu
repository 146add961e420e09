extern "C" __global__
void k90_kernel(int n, float* in1, int s2, int s3, int trips4, float* in5, float* out6) {
    int v0 = blockIdx.x;
    int v1 = (v0 * 16);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    float v4 = 0.0f;
    float v10 = v4;
    for (int v5 = 0; v5 < trips4; v5 += 1) {
        int v7 = -4;
        int v8 = ((v7) > (s3) ? (v7) : (s3));
        float v9 = (v10 + v8);
        v10 = v9;
    }
    float v11 = (s2 + 0.0f);
    out6[v0] = v11;
}
