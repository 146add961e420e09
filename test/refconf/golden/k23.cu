extern "C" __global__
void k23_kernel(int n, float* in1, float* in2, float* in3, float* out4) {
    __shared__ float reduce_smem_8[16];

    int v0 = blockIdx.x;
    int v1 = (v0 * 16);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    bool v5 = (v3 < n);
    float v6 = (v5 ? in2[v3] : -2.0f);
    float v7 = expf(v6);
    reduce_smem_8[threadIdx.x] = v7;
    __syncthreads();
    for (int stride_8 = 8; stride_8 > 0; stride_8 >>= 1) {
        if (threadIdx.x < stride_8) {
            reduce_smem_8[threadIdx.x] = fmaxf(reduce_smem_8[threadIdx.x], reduce_smem_8[threadIdx.x + stride_8]);
        }
        __syncthreads();
    }
    float v8 = reduce_smem_8[0];
    float v9 = (isnan(v6) ? (v6) : (isnan(v8) ? (v8) : ((v6) < (v8) ? (v6) : (v8))));
    if (v5) {
        out4[v3] = v9;
    }
}
