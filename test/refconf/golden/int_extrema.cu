extern "C" __global__
void int_extrema_kernel(float* out, int n) {
    __shared__ int reduce_smem_3[256];
    __shared__ int reduce_smem_4[256];

    int v0 = threadIdx.x;
    int v1 = (v0 * 3);
    int v2 = (v1 - n);
    reduce_smem_3[threadIdx.x] = v2;
    __syncthreads();
    for (int stride_3 = 128; stride_3 > 0; stride_3 >>= 1) {
        if (threadIdx.x < stride_3) {
            reduce_smem_3[threadIdx.x] = (reduce_smem_3[threadIdx.x] > reduce_smem_3[threadIdx.x + stride_3] ? reduce_smem_3[threadIdx.x] : reduce_smem_3[threadIdx.x + stride_3]);
        }
        __syncthreads();
    }
    int v3 = reduce_smem_3[0];
    reduce_smem_4[threadIdx.x] = v2;
    __syncthreads();
    for (int stride_4 = 128; stride_4 > 0; stride_4 >>= 1) {
        if (threadIdx.x < stride_4) {
            reduce_smem_4[threadIdx.x] = (reduce_smem_4[threadIdx.x] < reduce_smem_4[threadIdx.x + stride_4] ? reduce_smem_4[threadIdx.x] : reduce_smem_4[threadIdx.x + stride_4]);
        }
        __syncthreads();
    }
    int v4 = reduce_smem_4[0];
    int v5 = (v3 + v4);
    float v6 = (v5 + 0.0f);
    out[0] = v6;
}
