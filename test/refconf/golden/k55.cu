extern "C" __global__
void k55_kernel(int n, float* in1, int trips2, float* in3, float* out4) {
    __shared__ float reduce_smem_19[16];

    int v0 = blockIdx.x;
    int v1 = (v0 * 16);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    int v4 = 4;
    int v5 = ((3) < (v3) ? (3) : (v3));
    int v6 = ((v4) > (v5) ? (v4) : (v5));
    float v7 = 0.0f;
    float v13 = v7;
    for (int v8 = 1; v8 < trips2; v8 += 1) {
        int v10 = 0;
        int v11 = (v6 - v10);
        float v12 = (v13 + v11);
        v13 = v12;
    }
    bool v15 = (v3 < n);
    float v16 = (v15 ? in1[v3] : -0.25f);
    float v17 = (v16 + v3);
    float v18 = expf(v17);
    reduce_smem_19[threadIdx.x] = v18;
    __syncthreads();
    for (int stride_19 = 8; stride_19 > 0; stride_19 >>= 1) {
        if (threadIdx.x < stride_19) {
            reduce_smem_19[threadIdx.x] = fmaxf(reduce_smem_19[threadIdx.x], reduce_smem_19[threadIdx.x + stride_19]);
        }
        __syncthreads();
    }
    float v19 = reduce_smem_19[0];
    out4[v0] = v19;
}
