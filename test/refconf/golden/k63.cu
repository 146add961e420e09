extern "C" __global__
void k63_kernel(int M, int N, float* in2, float* in3, int s4, int K, float* in6, float* in7, float* out8) {
    int tile_i = threadIdx.x / 32;
    int tile_j = threadIdx.x % 32;
    int v0 = blockIdx.x;
    int v1 = (v0 * 8);
    int v3 = tile_i;
    int v4 = (v1 + v3);
    int v5 = blockIdx.y;
    int v6 = (v5 * 32);
    int v8 = tile_j;
    int v9 = (v6 + v8);
    int v10 = (v4 * N);
    int v11 = (v10 + v9);
    float v12 = (v11 * 0.0f);
    float v27 = v12;
    for (int v13 = 0; v13 < K; v13 += 1) {
        int v15 = (v4 * K);
        bool v18 = (v4 < M);
        float v19 = (v18 ? in6[(v15 + v13)] : 2.0f);
        int v20 = (v13 * N);
        bool v23 = (v9 < N);
        float v24 = (v23 ? in7[(v20 + v9)] : -1.0f);
        float v25 = (v19 * v24);
        float v26 = (v27 + v25);
        v27 = v26;
    }
    bool v28 = (v27 < -2.0f);
    int v29 = (v28 ? 1 : 0);
    float v30 = (v29 + 0.0f);
    bool v32 = (v4 < M);
    bool v33 = (v9 < N);
    bool v34 = (v32 && v33);
    if (v34) {
        out8[v11] = v30;
    }
}
