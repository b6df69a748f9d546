# Bag-of-embeddings text classifier with padding_idx, masked mean pooling, and a vocab built by hand
import torch
import torch.nn as nn

sentences = ["i love this movie", "this film was terrible", "great acting", "bad plot and bad acting"]
labels = torch.tensor([1, 0, 1, 0])
vocab = {"<pad>": 0, "<unk>": 1}
for s in sentences:
    for w in s.split():
        vocab.setdefault(w, len(vocab))
print(len(vocab), vocab["bad"])
encoded = [[vocab.get(w, 1) for w in s.split()] for s in sentences]
max_len = max(len(e) for e in encoded)
ids = torch.tensor([e + [0] * (max_len - len(e)) for e in encoded])
print(ids)
mask = (ids != 0)
print(mask.long().sum(1).tolist())


class BagClassifier(nn.Module):
    def __init__(self, vocab_size, dim, n_classes):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, dim, padding_idx=0)
        self.fc = nn.Linear(dim, n_classes)

    def forward(self, ids):
        e = self.emb(ids)
        m = (ids != 0).unsqueeze(-1).float()
        pooled = (e * m).sum(1) / m.sum(1).clamp(min=1)
        return self.fc(pooled)


model = BagClassifier(len(vocab), 5, 2)
with torch.no_grad():
    model.emb.weight.copy_(torch.sin(torch.arange(len(vocab) * 5, dtype=torch.float64)).view(-1, 5))
    model.emb.weight[0].zero_()
    model.fc.weight.copy_(torch.cos(torch.arange(10.0)).view(2, 5))
    model.fc.bias.zero_()
opt = torch.optim.Adagrad(model.parameters(), lr=0.5)
for epoch in range(20):
    opt.zero_grad()
    loss = nn.functional.cross_entropy(model(ids), labels)
    loss.backward()
    opt.step()
print(round(loss.item(), 6), model.emb.weight.grad[0].abs().sum().item())
print(model.emb.weight[0].tolist())
test = torch.tensor([[vocab.get(w, 1) for w in "great movie".split()]])
print(test, model(test).softmax(-1).round(decimals=4))
print(model.emb(torch.tensor([0, 1])).shape, model.emb.padding_idx, model.emb)
