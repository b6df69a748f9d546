# kthvalue/median/nanmedian/mode keepdim and even lengths (lower median), quantile interpolations
import torch

x = torch.tensor([[4.0, 1.0, 3.0, 2.0], [0.0, 5.0, 5.0, 1.0]])
print(x.kthvalue(3, dim=1, keepdim=True))
print(x.median(dim=1, keepdim=True), x.median())
print(torch.mode(x, dim=1))
print(torch.quantile(x, 0.5, dim=1), torch.quantile(x, torch.tensor([0.25, 0.75]), dim=1, interpolation="nearest"))
for it in ["linear", "lower", "higher", "midpoint"]:
    print(it, torch.quantile(torch.tensor([1.0, 2.0, 4.0, 8.0]), 0.4, interpolation=it))
