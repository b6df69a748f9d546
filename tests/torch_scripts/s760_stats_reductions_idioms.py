# Descriptive statistics as data scientists write them: mean/std/var, quantile, median, mode,
# histc, var_mean, corrcoef, cumsum normalisation, z-scores, nan-aware versions
import torch

data = torch.tensor([[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0],
                     [1.0, 3.0, 3.0, 6.0, 8.0, 8.0, 8.0, 10.0]])
print(data.mean(), data.mean(dim=1), data.std(), data.std(dim=1, unbiased=False))
print(data.var(dim=1, correction=0), torch.var_mean(data, dim=1), torch.std_mean(data, dim=0)[0][:3])
print(torch.quantile(data, 0.5, dim=1), torch.quantile(data[0], torch.tensor([0.25, 0.75])))
print(torch.quantile(data[1], 0.3, interpolation='nearest'), torch.quantile(data[1], 0.3, interpolation='midpoint'))
print(data.median(), data.median(dim=1), data.mode(dim=1))
print(torch.histc(data[0], bins=4, min=0, max=10), torch.histogram(data[0], bins=3).hist)
print(torch.corrcoef(data).round(decimals=5), torch.cov(data, correction=0).round(decimals=4))
z = (data - data.mean(dim=1, keepdim=True)) / data.std(dim=1, keepdim=True)
print(z.round(decimals=4))
p = data[0] / data[0].sum()
print(p.cumsum(0).round(decimals=4), torch.searchsorted(p.cumsum(0), torch.tensor([0.1, 0.5, 0.9])))
nan_data = torch.tensor([1.0, float('nan'), 3.0, 4.0])
print(nan_data.nanmean(), nan_data.nansum(), torch.nanmedian(nan_data), torch.nanquantile(nan_data, 0.5))
print(torch.isnan(nan_data).sum().item(), nan_data[~nan_data.isnan()].mean(), torch.nan_to_num(nan_data, nan=0.0))
print(data.max(dim=1).values - data.min(dim=1).values, data.amax(1), data.aminmax())
print(torch.logsumexp(data, dim=1), data.prod(dim=1), data.norm(dim=1), data.count_nonzero(dim=1))
print(data.sum(1, keepdim=True).shape, data.float().dtype, data.int().sum().dtype, data.long().float().mean(dtype=torch.float64))
print(torch.bincount(torch.tensor([0, 1, 1, 3]), weights=torch.tensor([0.5, 1.0, 1.0, 2.0])))
