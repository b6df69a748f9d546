import torch

train = torch.tensor([[0.0, 0.0], [0.1, 0.3], [1.0, 1.0], [0.9, 1.2], [2.0, 0.1], [2.2, -0.1], [1.1, 0.9]])
labels = torch.tensor([0, 0, 1, 1, 2, 2, 1])
query = torch.tensor([[0.05, 0.1], [1.0, 1.1], [2.1, 0.0], [1.5, 0.5]])
for p in (2.0, 1.0, float("inf")):
    d = torch.cdist(query, train, p=p)
    vals, idx = d.topk(3, dim=1, largest=False)
    votes = labels[idx]
    pred = torch.mode(votes, dim=1).values
    print(p, idx.tolist(), pred.tolist())
    print(vals.round(decimals=4))
d = torch.cdist(query, train)
s, order = torch.sort(d, dim=1, stable=True)
print(order[:, :2], torch.equal(s[:, 0], d.min(dim=1).values))
onehot = torch.nn.functional.one_hot(labels[order[:, :3]], num_classes=3).sum(dim=1)
print(onehot, onehot.argmax(dim=1))
wts = 1.0 / (s[:, :3] + 1e-9)
wvote = torch.zeros(len(query), 3).scatter_add_(1, labels[order[:, :3]], wts)
print(wvote.argmax(1), (wvote / wvote.sum(1, keepdim=True)).round(decimals=3))
m = torch.mode(torch.tensor([[1, 2, 2, 3], [4, 4, 1, 1]]), dim=-1)
print(m.values, m.indices.shape, m)
kth = torch.kthvalue(d, 2, dim=1)
print(kth.values.round(decimals=4), kth.indices)
print(torch.cdist(query.unsqueeze(0), train.unsqueeze(0)).shape)
print(torch.nn.functional.pairwise_distance(query, train[:4]).round(decimals=4))
print(torch.nn.functional.pdist(train[:4]).round(decimals=4))
