// Visits written for the problem-oriented assessment and plan tests (issue 18): one, three and
// five problems, taken up with the cues clinicians use ("for your first problem…", "regarding
// your…", "pour son…", "en cuanto a su…").

export const ONE_PROBLEM_EN = `[doctor] hi ms. lopez , what brings you in today ?
[patient] my right ankle has been hurting since i twisted it playing tennis on saturday .
[doctor] any numbness or tingling in your foot ?
[patient] no .
[doctor] on exam , there is swelling over the lateral ankle and tenderness over the anterior talofibular ligament .
[doctor] i reviewed your x-ray and it shows no fracture .
[doctor] so for your right ankle sprain , i think this is a grade one sprain .
[doctor] i want you to ice it and elevate it , and i'm going to put you on ibuprofen 600 mg three times a day .
[doctor] we'll see you back in two weeks .`;

export const THREE_PROBLEMS_EN = `[doctor] good morning mr. chen , you're here for follow up of your blood pressure , your diabetes and your knee .
[patient] yes , my knee still hurts when i climb stairs .
[doctor] are you checking your sugars ?
[patient] yes , they run about 140 in the morning .
[doctor] your blood pressure today is 148 over 92 .
[doctor] on exam , your lungs are clear and there is crepitus in your left knee .
[doctor] for your first problem , your hypertension , it is not well controlled today .
[doctor] i'm going to increase your lisinopril to 20 mg once a day .
[doctor] for your second problem , your type 2 diabetes , your sugars are a bit high .
[doctor] we'll order a hemoglobin a1c in a month and continue your metformin 1000 mg twice a day .
[doctor] regarding your left knee osteoarthritis , i think the arthritis is getting worse .
[doctor] i'm going to refer you to physical therapy .`;

export const FIVE_PROBLEMS_EN = `[doctor] hello mrs. patel , we have a few things to go over today .
[patient] i've been feeling tired and my feet are swelling .
[doctor] your blood pressure is 136 over 84 and your weight is 182 pounds .
[doctor] on exam , i do appreciate some crackles at the bases and there is 2+ pitting edema in both legs .
[doctor] for your first problem , your congestive heart failure , i think you're retaining fluid .
[doctor] i want to put you on lasix 40 mg a day .
[doctor] for your second problem , your atrial fibrillation , your rate is controlled .
[doctor] we'll continue your metoprolol 50 mg twice a day and your apixaban 5 mg twice a day .
[doctor] for your third problem , your hypothyroidism , your levels were normal last month .
[doctor] continue your levothyroxine 75 mcg daily .
[doctor] for your fourth problem , your depression , you told me your mood is better .
[doctor] we'll continue your sertraline 50 mg daily .
[doctor] for your fifth problem , your osteoporosis , your bone density scan showed a t-score of minus 2.6 .
[doctor] i'm going to start you on alendronate 70 mg once a week .
[doctor] i'd like to see you back in four weeks .`;

export const THREE_PROBLEMS_FR = `[médecin] bonjour madame , on fait le point sur votre tension , votre diabète et votre dos .
[patiente] j'ai toujours mal au dos le matin .
[médecin] votre tension est à 150 sur 95 .
[médecin] pour votre hypertension , elle n'est pas équilibrée .
[médecin] je vais augmenter le ramipril à 10 mg .
[médecin] pour votre diabète , l'hémoglobine glyquée est correcte .
[médecin] on va continuer la metformine 1000 mg deux fois par jour .
[médecin] pour votre lombalgie , je vous prescris des séances de kinésithérapie .`;

export const THREE_PROBLEMS_ES = `[médico] buenos días señora , hoy revisamos su presión , su diabetes y su rodilla .
[paciente] me duele la rodilla al subir escaleras .
[médico] su presión arterial es 150 sobre 95 .
[médico] en cuanto a su hipertensión , no está bien controlada .
[médico] voy a aumentar el enalapril a 20 mg .
[médico] en cuanto a su diabetes , está bien controlada .
[médico] vamos a continuar con la metformina 850 mg dos veces al día .
[médico] en cuanto a su artrosis de rodilla , le voy a derivar a fisioterapia .`;

export const ONE_PROBLEM_FR = `[médecin] bonjour monsieur , qu'est-ce qui vous amène ?
[patient] j'ai mal à la cheville droite depuis samedi , je me suis tordu le pied au foot .
[médecin] à l'examen , il y a un œdème en regard de la malléole externe .
[médecin] pour votre entorse de la cheville droite , c'est une entorse bénigne .
[médecin] je vous prescris de l'ibuprofène 400 mg trois fois par jour pendant cinq jours .
[médecin] revenez me voir dans deux semaines si la douleur persiste .`;

export const FIVE_PROBLEMS_FR = `[médecin] bonjour madame , nous avons plusieurs choses à voir aujourd'hui .
[patiente] je suis fatiguée et mes chevilles gonflent .
[médecin] votre tension est à 136 sur 84 et votre poids est de 82 kg .
[médecin] à l'auscultation pulmonaire , je retrouve des crépitants aux deux bases .
[médecin] pour votre insuffisance cardiaque , vous retenez de l'eau .
[médecin] je vais vous mettre sous furosémide 40 mg par jour .
[médecin] pour votre fibrillation auriculaire , le rythme est contrôlé .
[médecin] on continue l'apixaban 5 mg deux fois par jour .
[médecin] pour votre hypothyroïdie , la TSH était normale le mois dernier .
[médecin] on continue la lévothyroxine 75 µg par jour .
[médecin] pour votre dépression , vous dormez mieux .
[médecin] on continue la sertraline 50 mg par jour .
[médecin] pour votre arthrose du genou , la douleur est stable .
[médecin] je vous prescris du paracétamol 1 g trois fois par jour .`;

export const ONE_PROBLEM_ES = `[médico] buenos días señor , ¿qué le trae por aquí ?
[paciente] me torcí el tobillo derecho jugando al fútbol el sábado .
[médico] en la exploración , hay inflamación sobre el maléolo externo .
[médico] en cuanto a su esguince de tobillo derecho , es un esguince leve .
[médico] le receto ibuprofeno 400 mg cada 8 horas durante cinco días .
[médico] nos vemos en dos semanas .`;

export const FIVE_PROBLEMS_ES = `[médico] buenos días señora , hoy tenemos varias cosas que revisar .
[paciente] estoy cansada y se me hinchan los tobillos .
[médico] su presión arterial es 136 sobre 84 y su peso es 82 kg .
[médico] a la auscultación pulmonar , escucho crepitantes en ambas bases .
[médico] en cuanto a su insuficiencia cardíaca , está reteniendo líquido .
[médico] voy a empezar furosemida 40 mg al día .
[médico] en cuanto a su fibrilación auricular , el ritmo está controlado .
[médico] vamos a continuar con apixabán 5 mg dos veces al día .
[médico] en cuanto a su hipotiroidismo , la TSH fue normal el mes pasado .
[médico] vamos a continuar con levotiroxina 75 mcg al día .
[médico] en cuanto a su depresión , duerme mejor .
[médico] vamos a continuar con sertralina 50 mg al día .
[médico] en cuanto a su artrosis de rodilla , el dolor está estable .
[médico] le receto paracetamol 1 g cada 8 horas .`;
