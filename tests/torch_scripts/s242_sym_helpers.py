import math

import torch


def out_len(n, k, s, p):
    return torch.sym_int((n + 2 * p - k) / s) + 1


sizes = [out_len(32, 3, 2, 1), out_len(7, 3, 1, 0)]
print(sizes, type(sizes[0]).__name__)
print(torch.sym_max(3, 2.5), torch.sym_min(4, 7), torch.sym_float(5))
print(torch.sym_not(False), torch.sym_sqrt(16), torch.sym_ite(sizes[0] > 10, "big", "small"))
print(torch.sym_sum([1, 2, 3]), torch.sym_sum([0.5, 1]))
print(isinstance(sizes[0], (int, torch.SymInt)), isinstance(2.0, torch.SymFloat))
x = torch.zeros(sizes[1], math.ceil(torch.sym_float(3) / 2))
print(x.shape)
