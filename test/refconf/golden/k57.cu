extern "C" __global__
void k57_kernel(int n, float* in1, int trips2, float* in3, float* out4) {
    __shared__ float reduce_smem_13[128];

    int v0 = blockIdx.x;
    int v1 = (v0 * 128);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    bool v5 = (v3 < n);
    float v6 = (v5 ? in1[v3] : 2.0f);
    float v7 = 0.0f;
    float v12 = v7;
    for (int v8 = 0; v8 < trips2; v8 += 1) {
        int v10 = -(v3);
        float v11 = (v12 + v10);
        v12 = v11;
    }
    reduce_smem_13[threadIdx.x] = v6;
    __syncthreads();
    for (int stride_13 = 64; stride_13 > 0; stride_13 >>= 1) {
        if (threadIdx.x < stride_13) {
            reduce_smem_13[threadIdx.x] += reduce_smem_13[threadIdx.x + stride_13];
        }
        __syncthreads();
    }
    float v13 = reduce_smem_13[0];
    out4[v0] = v13;
}
