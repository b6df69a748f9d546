import torch
import torch.nn as nn

table = torch.arange(20.0).view(5, 4) / 4
text = torch.tensor([1, 2, 4, 4, 3, 0, 2])
offsets = torch.tensor([0, 3, 3, 5])
for mode in ["sum", "mean", "max"]:
    bag = nn.EmbeddingBag.from_pretrained(table, mode=mode, freeze=False)
    out = bag(text, offsets)
    out.pow(2).sum().backward()
    print(mode, out.tolist())
    print(bag.weight.grad.sum(1).round(decimals=8).tolist())
weighted = nn.EmbeddingBag.from_pretrained(table, mode="sum")
psw = torch.tensor([1.0, 0.5, 2.0, -1.0, 1.0, 0.0, 3.0])
print(weighted(text, offsets, per_sample_weights=psw))
last = nn.EmbeddingBag.from_pretrained(table, mode="mean", include_last_offset=True)
print(last(text, torch.tensor([0, 2, 7])))
two_d = nn.EmbeddingBag.from_pretrained(table, mode="max")
print(two_d(torch.tensor([[0, 1], [4, 2], [3, 3]])))
padded = nn.EmbeddingBag.from_pretrained(table, mode="mean", padding_idx=0)
print(padded(torch.tensor([[0, 1, 1], [0, 0, 2]])))
class BagClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.bag = nn.EmbeddingBag(5, 4, mode="mean")
        self.fc = nn.Linear(4, 2)
    def forward(self, t, o):
        return self.fc(self.bag(t, o))
clf = BagClassifier()
with torch.no_grad():
    clf.bag.weight.copy_(table)
    clf.fc.weight.copy_(torch.tensor([[0.1, -0.2, 0.3, 0.0], [-0.1, 0.2, 0.0, 0.4]]))
    clf.fc.bias.zero_()
print(clf(text, offsets).round(decimals=4))
