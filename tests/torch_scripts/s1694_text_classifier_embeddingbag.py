# The text classification tutorial's model: nn.EmbeddingBag(mode="mean") over flattened
# token ids with offsets built by a collate_fn, uniform init of +-0.5, SGD with StepLR,
# gradient clipping at 0.1
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader

texts = [("good fun great", 1), ("bad awful boring", 0), ("great great good movie", 1),
         ("boring bad plot", 0), ("fun movie", 1), ("awful", 0), ("good plot great fun", 1),
         ("bad boring awful movie", 0)]
vocab = {w: i for i, w in enumerate(sorted({w for t, _ in texts for w in t.split()}))}
print(len(vocab), vocab["good"])


def collate_batch(batch):
    labels, ids, offsets = [], [], [0]
    for text, label in batch:
        toks = torch.tensor([vocab[w] for w in text.split()], dtype=torch.int64)
        labels.append(label)
        ids.append(toks)
        offsets.append(toks.size(0))
    offsets = torch.tensor(offsets[:-1]).cumsum(dim=0)
    return torch.tensor(labels, dtype=torch.int64), torch.cat(ids), offsets


class TextClassificationModel(nn.Module):
    def __init__(self, vocab_size, embed_dim, num_class):
        super().__init__()
        self.embedding = nn.EmbeddingBag(vocab_size, embed_dim, mode="mean")
        self.fc = nn.Linear(embed_dim, num_class)
        self.init_weights()

    def init_weights(self):
        initrange = 0.5
        with torch.no_grad():
            g = np.random.default_rng(7)
            self.embedding.weight.copy_(torch.from_numpy(g.uniform(-initrange, initrange, tuple(self.embedding.weight.shape))))
            self.fc.weight.copy_(torch.from_numpy(g.uniform(-initrange, initrange, tuple(self.fc.weight.shape))))
        self.fc.bias.data.zero_()

    def forward(self, text, offsets):
        return self.fc(self.embedding(text, offsets))


model = TextClassificationModel(len(vocab), 6, 2)
loader = DataLoader(texts, batch_size=4, shuffle=False, collate_fn=collate_batch)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=5)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, 1.0, gamma=0.1)
for epoch in range(3):
    model.train()
    acc = cnt = 0
    for label, text, offsets in loader:
        optimizer.zero_grad()
        pred = model(text, offsets)
        loss = criterion(pred, label)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 0.1)
        optimizer.step()
        acc += (pred.argmax(1) == label).sum().item()
        cnt += label.size(0)
    scheduler.step()
    print(f"epoch {epoch} acc {acc / cnt:.3f} loss {loss.item():.6f} lr {scheduler.get_last_lr()[0]:.4f}")
label, text, offsets = collate_batch(texts[:3])
print(text.tolist(), offsets.tolist())
model.eval()
with torch.no_grad():
    print(model(text, offsets).softmax(1).numpy().round(4))
print(model.embedding.weight.grad[vocab["good"]].numpy().round(6))
