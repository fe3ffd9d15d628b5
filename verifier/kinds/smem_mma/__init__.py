"""smem_mma"""
