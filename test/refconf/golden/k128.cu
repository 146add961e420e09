extern "C" __global__
void k128_kernel(int n, float* in1, float f2, float f3, float* in4, int trips5, float* in6, float* out7) {
    __shared__ float reduce_smem_23[16];

    int v0 = blockIdx.x;
    int v1 = (v0 * 16);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    float v4 = 0.0f;
    int v5 = (v3 + 0);
    int v7 = (v3 + 0);
    bool v8 = (v7 < 9);
    float v9 = (v8 ? in4[v5] : 1.75f);
    float v10 = (v9 * -2.0f);
    float v11 = (v4 + v10);
    float v12 = 0.0f;
    float v22 = v12;
    for (int v13 = 0; v13 < trips5; v13 += 1) {
        float v15 = expf(v11);
        int v16 = (v3 + v13);
        bool v18 = (v16 < 9);
        float v19 = (v18 ? in6[v16] : 1.5f);
        float v20 = (v15 + v19);
        float v21 = (isnan(v22) ? (v22) : (isnan(v20) ? (v20) : ((v22) > (v20) ? (v22) : (v20))));
        v22 = v21;
    }
    reduce_smem_23[threadIdx.x] = v11;
    __syncthreads();
    for (int stride_23 = 8; stride_23 > 0; stride_23 >>= 1) {
        if (threadIdx.x < stride_23) {
            reduce_smem_23[threadIdx.x] = fmaxf(reduce_smem_23[threadIdx.x], reduce_smem_23[threadIdx.x + stride_23]);
        }
        __syncthreads();
    }
    float v23 = reduce_smem_23[0];
    out7[v0] = v23;
}
