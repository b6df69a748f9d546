# Tabular preprocessing before a model, as a Kaggle notebook does it in torch: quantile
# bin edges, bucketize/searchsorted into bins, nan-aware statistics (nanmean, nanmedian,
# nan_to_num), standardisation with unbiased std, one-hot features and histc counts
import torch

raw = torch.tensor([[1.0, 200.0, float("nan")], [2.5, 180.0, 3.0], [0.5, float("nan"), 4.0],
                    [3.0, 220.0, 2.0], [1.5, 210.0, float("nan")], [2.0, 190.0, 5.0]])
print(torch.nanmean(raw, dim=0), torch.nanmedian(raw[:, 1]))
vals, idx = torch.nanmedian(raw, dim=0)
print(vals, idx)
filled = torch.where(torch.isnan(raw), torch.nanmean(raw, 0, keepdim=True), raw)
mu, sd = filled.mean(0), filled.std(0, unbiased=True)
z = (filled - mu) / sd
print(z.numpy().round(4))
edges = torch.quantile(filled[:, 0], torch.tensor([0.25, 0.5, 0.75]))
print(edges, torch.quantile(filled[:, 0], 0.5, interpolation="nearest"))
bins = torch.bucketize(filled[:, 0], edges)
print(bins, torch.bucketize(filled[:, 0], edges, right=True))
print(torch.searchsorted(edges, torch.tensor([0.0, 1.5, 9.0]), side="right"))
onehot = torch.nn.functional.one_hot(bins, num_classes=4)
print(onehot.sum(0), onehot.dtype)
print(torch.histc(filled[:, 1], bins=4, min=180, max=220))
print(torch.nan_to_num(raw, nan=-1.0)[:, 2], torch.nansum(raw, 1))
print(torch.var_mean(filled, dim=0, correction=0))
print(torch.aminmax(filled, dim=0))
print(filled.nanquantile(torch.tensor([0.1, 0.9]), dim=0).numpy().round(4))
