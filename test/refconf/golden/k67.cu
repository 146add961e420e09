extern "C" __global__
void k67_kernel(int M, int N, float* in2, int s3, float* out4) {
    int tile_i = threadIdx.x / 8;
    int tile_j = threadIdx.x % 8;
    int v0 = blockIdx.x;
    int v1 = (v0 * 8);
    int v3 = tile_i;
    int v4 = (v1 + v3);
    int v5 = (v4 * N);
    int v6 = blockIdx.y;
    int v7 = (v6 * 8);
    int v9 = tile_j;
    int v10 = (v7 + v9);
    int v11 = (v5 + v10);
    int v12 = -(v11);
    int v13 = (v12 + 8);
    float v14 = (v13 + 0.0f);
    bool v16 = (v4 < M);
    bool v17 = (v10 < N);
    bool v18 = (v16 && v17);
    if (v18) {
        out4[v11] = v14;
    }
}
