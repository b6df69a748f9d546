# Datasets returning dicts and tuples of mixed types: default_collate on dicts, strings, numbers,
# numpy arrays; a transform callable; iterating with enumerate and len
import numpy as np
import torch
from torch.utils.data import Dataset, DataLoader
from torch.utils.data.dataloader import default_collate


class Normalize:
    def __init__(self, mean, std):
        self.mean, self.std = mean, std

    def __call__(self, x):
        return (x - self.mean) / self.std


class TabularDataset(Dataset):
    def __init__(self, n, transform=None):
        self.features = np.stack([np.arange(n) * 1.0, np.arange(n) ** 2 * 0.1], 1)
        self.targets = np.arange(n) % 2
        self.names = [f"row{i}" for i in range(n)]
        self.transform = transform

    def __len__(self):
        return len(self.targets)

    def __getitem__(self, idx):
        if torch.is_tensor(idx):
            idx = idx.tolist()
        x = torch.tensor(self.features[idx], dtype=torch.float32)
        if self.transform:
            x = self.transform(x)
        return {"x": x, "y": int(self.targets[idx]), "name": self.names[idx], "raw": self.features[idx]}


ds = TabularDataset(7, transform=Normalize(torch.tensor([3.0, 1.0]), torch.tensor([2.0, 1.0])))
print(len(ds), ds[torch.tensor(2)]["name"], ds[1]["x"])
loader = DataLoader(ds, batch_size=3, shuffle=False)
for i, batch in enumerate(loader):
    print(i, batch["x"].shape, batch["x"].dtype, batch["y"], batch["name"], batch["raw"].dtype)
print(len(loader))
batch = default_collate([(1, 2.5, "a", torch.ones(2)), (3, 4.5, "b", torch.zeros(2))])
print(batch)
print(default_collate([np.array([1, 2]), np.array([3, 4])]), default_collate([{"a": [1, 2]}, {"a": [3, 4]}]))
nested = default_collate([{"p": (torch.tensor(1.0), 2)}, {"p": (torch.tensor(3.0), 4)}])
print(nested)
loader2 = DataLoader(ds, batch_size=4, collate_fn=lambda b: torch.stack([d["x"] for d in b]))
print([t.shape for t in loader2])
