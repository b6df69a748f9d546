import torch

pts = torch.tensor([[0.0, 0.1], [0.2, -0.1], [-0.1, 0.0], [5.0, 5.1], [5.2, 4.9], [4.8, 5.0], [0.0, 5.0], [0.2, 5.2]])
centroids = pts[[0, 3, 6]].clone() + 0.3
for it in range(5):
    d = torch.cdist(pts, centroids)
    assign = d.argmin(dim=1)
    counts = torch.bincount(assign, minlength=3).to(pts.dtype)
    sums = torch.zeros_like(centroids).index_add_(0, assign, pts)
    new = sums / counts.clamp(min=1).unsqueeze(1)
    shift = (new - centroids).norm(dim=1).max()
    centroids = new
    print(it, assign.tolist(), round(shift.item(), 6))
print(centroids)
inertia = ((pts - centroids[assign]) ** 2).sum()
print(round(inertia.item(), 8))
onehot = torch.nn.functional.one_hot(assign, 3).to(pts.dtype)
print(torch.allclose(onehot.T @ pts / onehot.sum(0, keepdim=True).T, centroids))
q = torch.tensor([[0.12, 0.0], [4.9, 5.0]])
dist = torch.cdist(q, pts)
knn_d, knn_i = dist.topk(3, largest=False)
print(knn_i, knn_d.round(decimals=5))
votes = assign[knn_i]
print(torch.mode(votes, dim=1).values, votes)
sq = (q.unsqueeze(1) - pts.unsqueeze(0)).pow(2).sum(-1)
print(torch.allclose(sq.sqrt(), dist), sq.argsort(dim=1)[:, :3])
x = pts - pts.mean(0)
cov = x.T @ x / (len(x) - 1)
print(torch.allclose(cov, torch.cov(pts.T)), cov.round(decimals=5))
evals, evecs = torch.linalg.eigh(cov)
proj = x @ evecs[:, -1:]
print(proj.shape, evals.round(decimals=5), (proj.abs().squeeze() > 2).tolist())
U, S, V = torch.pca_lowrank(pts, q=2, center=True)
print(S.round(decimals=5), U.shape, V.shape)
hist = torch.histc(pts[:, 0], bins=3, min=-1, max=6)
print(hist, torch.histogram(pts[:, 1], bins=3, range=(-1.0, 6.0)).hist)
b = torch.bucketize(torch.tensor([0.0, 2.5, 5.1]), torch.tensor([1.0, 3.0, 5.0]))
print(b, torch.bucketize(torch.tensor([1.0, 3.0]), torch.tensor([1.0, 3.0]), right=True))
