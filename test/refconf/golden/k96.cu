extern "C" __global__
void k96_kernel(int M, int N, float* in2, float* out3) {
    int tile_i = threadIdx.x / 16;
    int tile_j = threadIdx.x % 16;
    int v0 = blockIdx.x;
    int v1 = (v0 * 8);
    int v3 = tile_i;
    int v4 = (v1 + v3);
    int v5 = (v4 * N);
    int v6 = blockIdx.y;
    int v7 = (v6 * 16);
    int v9 = tile_j;
    int v10 = (v7 + v9);
    int v11 = (v5 + v10);
    bool v13 = (v4 < M);
    bool v14 = (v10 < N);
    bool v15 = (v13 && v14);
    float v16 = (v15 ? in2[v11] : 0.75f);
    bool v17 = (v16 < v4);
    float v18 = (v17 ? v16 : -3.25f);
    float v19 = (isnan(-2.0f) ? (-2.0f) : (isnan(v18) ? (v18) : ((-2.0f) > (v18) ? (-2.0f) : (v18))));
    float v20 = -(v19);
    if (v15) {
        out3[v11] = v20;
    }
}
