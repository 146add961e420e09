extern "C" __global__
void k51_kernel(int n, float* in1, int trips2, float* in3, float* out4) {
    __shared__ float reduce_smem_19[32];

    int v0 = blockIdx.x;
    int v1 = (v0 * 32);
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
    float v16 = (v15 ? in1[v3] : 0.75f);
    float v17 = (v3 * v16);
    float v18 = -(v17);
    reduce_smem_19[threadIdx.x] = v18;
    __syncthreads();
    for (int stride_19 = 16; stride_19 > 0; stride_19 >>= 1) {
        if (threadIdx.x < stride_19) {
            reduce_smem_19[threadIdx.x] = fmaxf(reduce_smem_19[threadIdx.x], reduce_smem_19[threadIdx.x + stride_19]);
        }
        __syncthreads();
    }
    float v19 = reduce_smem_19[0];
    out4[v0] = v19;
}
