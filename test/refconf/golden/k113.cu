extern "C" __global__
void k113_kernel(int n, float* in1, float* in2, float* in3, float f4, float* out5) {
    __shared__ float reduce_smem_7[16];

    int v0 = blockIdx.x;
    int v1 = (v0 * 16);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    bool v5 = (v3 < n);
    float v6 = (v5 ? in3[v3] : -1.5f);
    reduce_smem_7[threadIdx.x] = v6;
    __syncthreads();
    for (int stride_7 = 8; stride_7 > 0; stride_7 >>= 1) {
        if (threadIdx.x < stride_7) {
            reduce_smem_7[threadIdx.x] = fmaxf(reduce_smem_7[threadIdx.x], reduce_smem_7[threadIdx.x + stride_7]);
        }
        __syncthreads();
    }
    float v7 = reduce_smem_7[0];
    float v8 = (3.5f - v7);
    out5[v0] = v8;
}
