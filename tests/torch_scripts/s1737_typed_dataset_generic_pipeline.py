# A type-hinted data pipeline as modern repositories write it: Dataset[Tuple[Tensor, int]]
# and Sampler[int] subclasses, a bucketing batch sampler grouping similar lengths, a
# collate_fn padding with pad_sequence, and a GRU classifier trained over the batches
from typing import Iterator, List, Tuple
import numpy as np
import torch
import torch.nn as nn
from torch import Tensor
from torch.nn.utils.rnn import pack_padded_sequence, pad_sequence
from torch.utils.data import DataLoader, Dataset, Sampler

rng = np.random.default_rng(841)


class SeqDataset(Dataset[Tuple[Tensor, int]]):
    def __init__(self, n: int) -> None:
        self.lens = rng.integers(2, 7, n)
        self.seqs = [torch.from_numpy(rng.standard_normal((int(L), 3))) for L in self.lens]
        self.labels = [int(s[:, 0].sum() > 0) for s in self.seqs]

    def __len__(self) -> int:
        return len(self.seqs)

    def __getitem__(self, i: int) -> Tuple[Tensor, int]:
        return self.seqs[i], self.labels[i]


class BucketBatchSampler(Sampler[List[int]]):
    def __init__(self, lengths, batch_size: int) -> None:
        self.order = np.argsort(lengths, kind="stable")
        self.batch_size = batch_size

    def __iter__(self) -> Iterator[List[int]]:
        for k in range(0, len(self.order), self.batch_size):
            yield self.order[k:k + self.batch_size].tolist()

    def __len__(self) -> int:
        return (len(self.order) + self.batch_size - 1) // self.batch_size


def collate(batch: List[Tuple[Tensor, int]]) -> Tuple[Tensor, Tensor, Tensor]:
    seqs, labels = zip(*batch)
    lengths = torch.tensor([len(s) for s in seqs])
    return pad_sequence(list(seqs), batch_first=True), lengths, torch.tensor(labels)


class GRUClassifier(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.gru = nn.GRU(3, 6, batch_first=True)
        self.fc = nn.Linear(6, 2)

    def forward(self, x: Tensor, lengths: Tensor) -> Tensor:
        _, h = self.gru(pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False))
        return self.fc(h[-1])


ds = SeqDataset(20)
loader = DataLoader(ds, batch_sampler=BucketBatchSampler(ds.lens, 6), collate_fn=collate)
print(len(loader), [b[0].shape[1] for b in loader])
model = GRUClassifier()
with torch.no_grad():
    for p in model.parameters():
        p.copy_(torch.from_numpy(rng.normal(0, 0.4, tuple(p.shape))))
opt = torch.optim.Adam(model.parameters(), lr=0.02)
for epoch in range(4):
    total, correct = 0.0, 0
    for x, lengths, y in loader:
        logits = model(x, lengths)
        loss = nn.functional.cross_entropy(logits, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(y)
        correct += (logits.argmax(1) == y).sum().item()
    print(epoch, f"{total / len(ds):.6f}", correct)
print(model.fc.bias.grad.numpy().round(6))
