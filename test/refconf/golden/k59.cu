extern "C" __global__
void k59_kernel(int n, float* in1, int s2, int s3, int trips4, float* in5, float* out6) {
    __shared__ float reduce_smem_8[16];

    int v0 = blockIdx.x;
    int v1 = (v0 * 16);
    int v2 = threadIdx.x;
    int v3 = (v1 + v2);
    bool v5 = (v3 < n);
    float v6 = (v5 ? in1[v3] : -0.5f);
    bool v7 = (v6 < -3.25f);
    reduce_smem_8[threadIdx.x] = v6;
    __syncthreads();
    for (int stride_8 = 8; stride_8 > 0; stride_8 >>= 1) {
        if (threadIdx.x < stride_8) {
            reduce_smem_8[threadIdx.x] = fminf(reduce_smem_8[threadIdx.x], reduce_smem_8[threadIdx.x + stride_8]);
        }
        __syncthreads();
    }
    float v8 = reduce_smem_8[0];
    float v9 = 0.0f;
    float v15 = v9;
    for (int v10 = 0; v10 < trips4; v10 += 1) {
        float v12 = (v7 ? v8 : 3.25f);
        float v13 = (v7 ? s2 : v12);
        float v14 = (v15 + v13);
        v15 = v14;
    }
    float v16 = -(v8);
    out6[v0] = v16;
}
