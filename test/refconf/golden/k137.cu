extern "C" __global__
void k137_kernel(int M, int N, float* in2, float* in3, float* in4, float* in5, float* out6) {
    int tile_i = threadIdx.x / 32;
    int tile_j = threadIdx.x % 32;
    int v0 = blockIdx.y;
    int v1 = (v0 * 32);
    int v3 = tile_j;
    int v4 = (v1 + v3);
    bool v6 = (v4 < N);
    float v7 = (v6 ? in5[v4] : -1.75f);
    float v8 = (-1.0f + v7);
    int v9 = blockIdx.x;
    int v10 = (v9 * 8);
    int v12 = tile_i;
    int v13 = (v10 + v12);
    float v14 = (v8 * v13);
    float v15 = (v14 * v13);
    int v16 = (v13 * N);
    int v17 = (v16 + v4);
    bool v19 = (v13 < M);
    bool v21 = (v19 && v6);
    if (v21) {
        out6[v17] = v15;
    }
}
