extern "C" __global__
void k80_kernel(int M, int N, float* in2, float* in3, int s4, float* out5) {
    int tile_i = threadIdx.x / 4;
    int tile_j = threadIdx.x % 4;
    int v0 = blockIdx.y;
    int v1 = (v0 * 4);
    int v3 = tile_j;
    int v4 = (v1 + v3);
    bool v6 = (v4 < N);
    float v7 = (v6 ? in3[v4] : -2.0f);
    float v8 = expf(v7);
    int v9 = blockIdx.x;
    int v10 = (v9 * 2);
    int v12 = tile_i;
    int v13 = (v10 + v12);
    int v14 = (v13 * N);
    int v15 = (v14 + v4);
    float v16 = (v8 + v15);
    float v17 = (v16 + 1.75f);
    float v18 = (3.5f - v17);
    float v19 = -2.0f;
    bool v20 = (v7 < -3.25f);
    float v21 = (v20 ? v17 : 2.25f);
    float v22 = (v19 * v21);
    float v23 = (v18 / v22);
    bool v25 = (v13 < M);
    bool v27 = (v25 && v6);
    if (v27) {
        out5[v15] = v23;
    }
}
