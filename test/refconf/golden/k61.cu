extern "C" __global__
void k61_kernel(int n, float* in1, float* in2, float* in3, float f4, float f5, int trips6, float* in7, float* out8) {
    __shared__ float reduce_smem_15[32];

    int v0 = blockIdx.x;
    int v1 = (v0 * 32);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    bool v5 = (v3 < n);
    float v6 = (v5 ? in1[v3] : -1.75f);
    float v7 = 0.0f;
    float v12 = v7;
    for (int v8 = 0; v8 < trips6; v8 += 1) {
        int v10 = -(v3);
        float v11 = (v12 + v10);
        v12 = v11;
    }
    float v14 = (v5 ? in2[v3] : 0.25f);
    reduce_smem_15[threadIdx.x] = v14;
    __syncthreads();
    for (int stride_15 = 16; stride_15 > 0; stride_15 >>= 1) {
        if (threadIdx.x < stride_15) {
            reduce_smem_15[threadIdx.x] = fmaxf(reduce_smem_15[threadIdx.x], reduce_smem_15[threadIdx.x + stride_15]);
        }
        __syncthreads();
    }
    float v15 = reduce_smem_15[0];
    float v16 = expf(v15);
    out8[v0] = v16;
}
