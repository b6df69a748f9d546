import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_sequence


class Classifier(nn.Module):
    def __init__(self, vocab=8, emb=4, hidden=5, classes=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb, padding_idx=0)
        self.lstm = nn.LSTM(emb, hidden, batch_first=True)
        self.head = nn.Linear(hidden, classes)

    def forward(self, tokens, lengths):
        packed = pack_padded_sequence(self.embed(tokens), lengths, batch_first=True, enforce_sorted=False)
        _, (h, _) = self.lstm(packed)
        return self.head(h[-1])


torch.manual_seed(0)
model = Classifier()
with torch.no_grad():
    for name, p in model.named_parameters():
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=p.dtype) * 1.3 + len(name)).view_as(p) * 0.4)
    model.embed.weight[0].zero_()
sents = [[1, 2, 3], [4, 5], [1, 1, 2, 6], [7], [5, 4, 4], [2, 3]]
labels = torch.tensor([0, 1, 0, 1, 1, 0])
tokens = pad_sequence([torch.tensor(s) for s in sents], batch_first=True)
lengths = torch.tensor([len(s) for s in sents])
print(tokens)
opt = torch.optim.Adam(model.parameters(), lr=0.05)
for epoch in range(25):
    opt.zero_grad()
    loss = nn.functional.cross_entropy(model(tokens, lengths), labels)
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    if epoch % 8 == 0:
        print(epoch, round(loss.item(), 5))
print(model.embed.weight.grad[0], model.embed.weight[0])
with torch.no_grad():
    probs = model(tokens, lengths).softmax(-1)
print(probs.round(decimals=3), probs.argmax(1), (probs.argmax(1) == labels).all().item())
