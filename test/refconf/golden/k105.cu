extern "C" __global__
void k105_kernel(int n, float* in1, float* in2, float* in3, float* in4, float* out5) {
    __shared__ float reduce_smem_9[64];

    int v0 = blockIdx.x;
    int v1 = (v0 * 64);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    bool v5 = (v3 < n);
    float v6 = (v5 ? in3[v3] : 1.5f);
    float v7 = (v6 + v0);
    float v8 = (v7 + 1.75f);
    reduce_smem_9[threadIdx.x] = v8;
    __syncthreads();
    for (int stride_9 = 32; stride_9 > 0; stride_9 >>= 1) {
        if (threadIdx.x < stride_9) {
            reduce_smem_9[threadIdx.x] = fmaxf(reduce_smem_9[threadIdx.x], reduce_smem_9[threadIdx.x + stride_9]);
        }
        __syncthreads();
    }
    float v9 = reduce_smem_9[0];
    out5[v0] = v9;
}
