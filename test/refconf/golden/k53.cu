extern "C" __global__
void k53_kernel(int M, int N, float* in2, float* in3, float* in4, float* out5) {
    int tile_i = threadIdx.x / 16;
    int tile_j = threadIdx.x % 16;
    int v0 = blockIdx.x;
    int v1 = (v0 * 4);
    int v3 = tile_i;
    int v4 = (v1 + v3);
    int v5 = (v4 * N);
    int v6 = blockIdx.y;
    int v7 = (v6 * 16);
    int v9 = tile_j;
    int v10 = (v7 + v9);
    int v11 = (v5 + v10);
    int v12 = ((3) < (v11) ? (3) : (v11));
    int v13 = 1;
    int v14 = (v12 * v13);
    bool v15 = (v14 < v14);
    int v16 = (v15 ? 1 : 0);
    float v17 = (v16 + 0.0f);
    bool v19 = (v4 < M);
    bool v20 = (v10 < N);
    bool v21 = (v19 && v20);
    if (v21) {
        out5[v11] = v17;
    }
}
