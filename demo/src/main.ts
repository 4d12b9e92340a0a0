import { Signal } from '@eddy/signal'

const count = new Signal(0)
count.bind(document.getElementById('count')!)
document.getElementById('increment')!.addEventListener('click', () => {
  count.value++
})
