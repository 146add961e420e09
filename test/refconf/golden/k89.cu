extern "C" __global__
void k89_kernel(int n, float* in1, float* in2, float* in3, float* out4) {
    __shared__ float reduce_smem_7[64];

    int v0 = blockIdx.x;
    int v1 = (v0 * 64);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    bool v5 = (v3 < n);
    float v6 = (v5 ? in1[v3] : -1.0f);
    reduce_smem_7[threadIdx.x] = v6;
    __syncthreads();
    for (int stride_7 = 32; stride_7 > 0; stride_7 >>= 1) {
        if (threadIdx.x < stride_7) {
            reduce_smem_7[threadIdx.x] = fmaxf(reduce_smem_7[threadIdx.x], reduce_smem_7[threadIdx.x + stride_7]);
        }
        __syncthreads();
    }
    float v7 = reduce_smem_7[0];
    out4[v0] = v7;
}
