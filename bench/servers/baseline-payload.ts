/**
 * The JSON both baselines answer: a payin read's envelope, about 1.2 KB once serialised, so the
 * bare servers do the same serialisation work per request as the real read (a).
 */
export function baselinePayload(): Record<string, unknown> {
  return {
    message: 'OK',
    data: {
      createdAt: '23.11.2025 10:15:42',
      updatedAt: '23.11.2025 10:15:42',
      expiresAt: '23.11.2025 10:45:42',
      merchantId: 1,
      externalId: 'order-2025-11-23-000042',
      transactionId: '6f1c2f9e-8a4b-4d1e-9c3a-2b7e5d0f4a11',
      status: 'pending',
      amount: 1500.5,
      currency: 'USD',
      exchangeRate: 1,
      description:
        'Order from the benchmark shop, two items, express delivery to the client address',
      isTest: false,
      paymentPage: 'http://127.0.0.1:3001/pay/6f1c2f9e-8a4b-4d1e-9c3a-2b7e5d0f4a11',
      paymentMessengerBot:
        'https://t.me/benchmark_shop_bot?tid=6f1c2f9e-8a4b-4d1e-9c3a-2b7e5d0f4a11',
      payment: {
        cardName: 'BENCHMARK RECEIVER',
        bankName: 'Benchmark Bank',
        cardNumber: '411111******1111',
        phoneNumber: '+10000000000',
        qrCode: null,
        accountNumber: '40817810099910004312',
        ibanNumber: 'DE89370400440532013000',
      },
      client: {
        id: '1001',
        email: 'buyer@example.com',
        name: 'Benchmark Buyer',
        ip: '203.0.113.7',
        userAgent:
          'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36',
        country: 'DE',
        city: 'Berlin',
      },
      proof: {
        ping: false,
        file: {
          fileUrl: 'http://127.0.0.1:3001/files/proof?expires=1763894142&sig=0f3c9a',
          mimeType: 'image/png',
          fileName: 'receipt.png',
        },
      },
    },
  };
}
