extern "C" __global__
void k10_kernel(int M, int N, float* in2, float* in3, float* in4, float* in5, float* out6) {
    int tile_i = threadIdx.x / 16;
    int tile_j = threadIdx.x % 16;
    int v0 = blockIdx.x;
    int v1 = (v0 * 2);
    int v3 = tile_i;
    int v4 = (v1 + v3);
    bool v6 = (v4 < M);
    float v7 = (v6 ? in4[v4] : -0.25f);
    int v8 = (v4 * N);
    int v9 = blockIdx.y;
    int v10 = (v9 * 16);
    int v12 = tile_j;
    int v13 = (v10 + v12);
    int v14 = (v8 + v13);
    bool v17 = (v13 < N);
    bool v18 = (v6 && v17);
    float v19 = (v18 ? in2[v14] : 0.25f);
    float v20 = (isnan(v7) ? (v7) : (isnan(v19) ? (v19) : ((v7) > (v19) ? (v7) : (v19))));
    float v21 = expf(v20);
    float v22 = (isnan(-2.25f) ? (-2.25f) : (isnan(v21) ? (v21) : ((-2.25f) < (v21) ? (-2.25f) : (v21))));
    if (v18) {
        out6[v14] = v22;
    }
}
