# a custom Dataset returning dicts; DataLoader's default collate and a custom collate_fn
import torch
from torch.utils.data import Dataset, DataLoader

class Squares(Dataset):
    def __len__(self):
        return 5
    def __getitem__(self, i):
        return {"x": torch.tensor([float(i)]), "y": i * i, "name": f"item{i}"}

dl = DataLoader(Squares(), batch_size=2)
for batch in dl:
    print(batch["x"].shape, batch["y"], batch["name"])
def pad_collate(items):
    xs = [torch.arange(float(it["y"] % 3 + 1)) for it in items]
    return torch.nn.utils.rnn.pad_sequence(xs, batch_first=True, padding_value=-1)
for b in DataLoader(Squares(), batch_size=3, collate_fn=pad_collate):
    print(b)
