# unique on data with missing values (NaN): each NaN is its own value, counts and inverse,
# and the nan-aware alternatives people use (isnan masks)
import torch

nan = float("nan")
x = torch.tensor([3.0, nan, 1.0, 3.0, nan, 2.0])
print(torch.unique(x), torch.unique(x, return_counts=True), torch.unique(x, return_inverse=True))
print(x.unique(sorted=True), torch.unique(x[~x.isnan()], return_counts=True), x.isnan().sum())
print(torch.unique_consecutive(torch.tensor([nan, nan, 1.0, 1.0])), torch.unique(torch.tensor([nan], dtype=torch.float32)))
vals, counts = torch.unique(x, return_counts=True)
print(dict(zip([v if v == v else "nan" for v in vals.tolist()], counts.tolist())))
