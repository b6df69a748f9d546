import string
import torch
import torch.nn as nn

all_letters = string.ascii_letters + " .,;'"
n_letters = len(all_letters)


def letterToIndex(letter):
    return all_letters.find(letter)


def letterToTensor(letter):
    tensor = torch.zeros(1, n_letters)
    tensor[0][letterToIndex(letter)] = 1
    return tensor


def lineToTensor(line):
    tensor = torch.zeros(len(line), 1, n_letters)
    for li, letter in enumerate(line):
        tensor[li][0][letterToIndex(letter)] = 1
    return tensor


print(letterToTensor('J').nonzero(), lineToTensor('Jones').size())
idx = torch.tensor([letterToIndex(ch) for ch in "abc"])
oh = torch.zeros(3, n_letters).scatter_(1, idx.unsqueeze(1), 1.0)
print(oh.sum(1), oh.argmax(1), torch.equal(oh, nn.functional.one_hot(idx, n_letters).double()))


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


n_hidden = 8
n_categories = 3
rnn = RNN(n_letters, n_hidden, n_categories)
with torch.no_grad():
    for i, p in enumerate(rnn.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float64) * 0.1 + i).reshape(p.shape) * 0.1)
criterion = nn.NLLLoss()
learning_rate = 0.05


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


data = [('Jones', 0), ('Satoshi', 1), ('Schmidt', 2), ('Nguyen', 1), ('Smith', 0)]
for epoch in range(3):
    total = 0
    for name, cat in data:
        output, loss = train(torch.tensor([cat], dtype=torch.long), lineToTensor(name))
        total += loss
    print(epoch, round(total, 6))


def categoryFromOutput(output):
    top_n, top_i = output.topk(1)
    category_i = top_i[0].item()
    return category_i


with torch.no_grad():
    hidden = rnn.initHidden()
    line = lineToTensor('Albert')
    for i in range(line.size()[0]):
        output, hidden = rnn(line[i], hidden)
    print(categoryFromOutput(output), output.numpy().round(5))

gru = nn.GRU(n_letters, 5, batch_first=True)
rnn2 = nn.RNN(n_letters, 5, num_layers=2, nonlinearity='tanh')
for m in (gru, rnn2):
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float64) * 0.2 + i).reshape(p.shape) * 0.2)
seq = lineToTensor('hello')
out, h = gru(seq.transpose(0, 1))
print(out.shape, h.shape, h.detach().numpy().round(5))
out, h = rnn2(seq)
print(out.shape, h.shape, h[-1].detach().numpy().round(5))
h.sum().backward()
print(rnn2.weight_hh_l1.grad.shape, rnn2.bias_ih_l0.grad.numpy().round(5))
