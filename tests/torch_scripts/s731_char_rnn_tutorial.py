# Char-level RNN (names-classification tutorial style): one-hot letters, nn.RNN-free manual cell
import string
import torch
import torch.nn as nn

all_letters = string.ascii_letters + " .,;'"
n_letters = len(all_letters)


def letterToIndex(letter):
    return all_letters.find(letter)


def lineToTensor(line):
    tensor = torch.zeros(len(line), 1, n_letters)
    for li, letter in enumerate(line):
        tensor[li][0][letterToIndex(letter)] = 1
    return tensor


print(letterToIndex('J'), lineToTensor('Jones').size())


class RNN(nn.Module):
    def __init__(self, input_size, hidden_size, output_size):
        super(RNN, self).__init__()
        self.hidden_size = hidden_size
        self.i2h = nn.Linear(input_size + hidden_size, hidden_size)
        self.i2o = nn.Linear(input_size + hidden_size, output_size)
        self.softmax = nn.LogSoftmax(dim=1)

    def forward(self, input, hidden):
        combined = torch.cat((input, hidden), 1)
        hidden = self.i2h(combined)
        output = self.i2o(combined)
        output = self.softmax(output)
        return output, hidden

    def initHidden(self):
        return torch.zeros(1, self.hidden_size)


rnn = RNN(n_letters, 16, 3)
with torch.no_grad():
    for p in rnn.parameters():
        p.copy_(0.1 * torch.cos(torch.arange(p.numel(), dtype=p.dtype)).view_as(p))
criterion = nn.NLLLoss()
learning_rate = 0.005


def train(category_tensor, line_tensor):
    hidden = rnn.initHidden()
    rnn.zero_grad()
    for i in range(line_tensor.size()[0]):
        output, hidden = rnn(line_tensor[i], hidden)
    loss = criterion(output, category_tensor)
    loss.backward()
    for p in rnn.parameters():
        p.data.add_(p.grad.data, alpha=-learning_rate)
    return output, loss.item()


data = [("Albert", 0), ("Satoshi", 1), ("Ivanov", 2), ("Bernard", 0), ("Nakamura", 1)]
for epoch in range(4):
    total = 0.0
    for name, cat in data:
        output, loss = train(torch.tensor([cat], dtype=torch.long), lineToTensor(name))
        total += loss
    print(f"epoch {epoch} avg loss {total / len(data):.5f}")
top_n, top_i = output.topk(1)
print(top_n.shape, top_i[0].item(), output.exp().sum().item())
