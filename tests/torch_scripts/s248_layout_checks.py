import torch

x = torch.randn(3, 4)


def describe(t):
    if t.layout == torch.sparse_coo:
        return "coo"
    if t.layout in (torch.sparse_csr, torch.sparse_csc):
        return "compressed"
    return "dense" if t.layout == torch.strided else "other"


print(describe(x), x.layout, x.is_sparse, x.is_sparse_csr)
print(torch.sparse_coo, torch.sparse_csr, torch.sparse_bsc, torch.jagged)
print(x.layout == torch.sparse_coo, x.layout != torch.sparse_csr)
print(x.is_quantized, x.is_meta, x.is_nested)
